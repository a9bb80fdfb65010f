#!/usr/bin/env python3
"""Independent verifier of ledger inclusion proofs, written from docs/ledger-format.md with the Python
standard library only (no code shared with the TypeScript service).

Usage:
  verify_proof.py PROOF.json        verify a proof document, or a JSON array of them ('-' reads stdin);
                                    prints one verdict line per proof, exits 0 when all verify, else 1
  verify_proof.py --canonical FILE  print Python's canonical form of any JSON value: json.dumps with
                                    sort_keys, no whitespace, ensure_ascii=False, as UTF-8, no newline
  verify_proof.py --formats         print the leaf field lists this verifier knows, as JSON
  verify_proof.py --fetch BASE_URL [--track TRACK] ID [ID ...]
                                    fetch each prediction's proof over HTTP (GET BASE_URL/api/ledger/proof/ID)
                                    and its hour's commit (GET BASE_URL/api/ledger/commits), and verify the proof
                                    and that it matches the commit as published (track, hour, leaf count, root)
Exit status 2 for a usage error or unreadable input.

A proof passes when: its payload is a canonical leaf (Python re-serialises it to the same bytes) of a known
track and version with exactly that version's fields, whose values are only strings, safe integers and null;
its time (predicted_at; detected_at for perps v1) lies in the commit hour; SHA-256 of the payload's UTF-8 bytes is leaf_hash; the siblings
have the sides the leaf's index and the hour's leaf count prescribe (a self-paired step's sibling is the
node itself); and hashing up the path, parent = SHA-256(left || right) on raw 32-byte digests, gives
merkle_root_hex.
"""

import hashlib
import json
import re
import sys
import urllib.request
from datetime import datetime, timedelta, timezone

# The leaf versions of docs/ledger-format.md. Versions are never edited; a new one is added here.
LEAF_FORMATS = {
    ("grad_prob", 1): [
        "age_bucket", "as_of", "calibration_band_hi", "calibration_band_lo", "calibration_n",
        "calibration_rate", "features_sha256", "grad_prob", "id", "leaf_version", "mint",
        "model_version", "predicted_at", "price_sol", "track",
    ],
    ("composite", 1): [
        "age_s_at_cross", "composite_score", "id", "leaf_version", "max_mult_at_cross", "mc_at_cross_usd",
        "mint", "predicted_at", "smart_money_in", "threshold_at_cross", "tier", "track",
    ],
    ("verdict", 1): [
        "branch", "evaluation_sha256", "id", "leaf_version", "predicted_at", "preregistration_id",
        "preregistration_sha256", "track", "verdict", "window_end", "window_start",
    ],
    ("perps", 1): [
        "detected_at", "entry_px", "entry_rule_version", "exchange", "id", "kind", "leaf_version", "leverage",
        "market", "position_value_usd", "price_at_detection", "rule_version", "side", "size", "smart_score",
        "track", "wallet", "wallet_roi_30d", "whale",
    ],
    ("shadow", 1): [
        "age_bucket", "as_of", "grad_prob", "id", "leaf_version", "mint", "model_name", "model_version",
        "predicted_at", "track",
    ],
    ("promotion", 1): [
        "challenger", "champion", "decision", "evidence_sha256", "id", "leaf_version", "n", "predicted_at",
        "rule_id", "rule_sha256", "track", "window_end",
    ],
}

# The field holding a leaf's time (the hour it is committed in): predicted_at, unless a version names another.
TIME_FIELDS = {("perps", 1): "detected_at"}

HEX64 = re.compile(r"^[0-9a-f]{64}$")
ISO_MILLIS = re.compile(r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$")
MAX_SAFE_INTEGER = 2**53 - 1


class Bad(Exception):
    pass


def canonical(value):
    """Python's rendering of the canonical form. It equals RFC 8785 for strings, integers, booleans and null
    under ASCII keys, which is all a leaf holds; it differs for floats (repr: 1e-07 against JCS 1e-7, 1e+16
    against 10000000000000000, 5.0 against 5) and for keys beyond U+FFFF (code points against UTF-16 units)."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False)


def _no_duplicates(pairs):
    keys = [k for k, _ in pairs]
    if len(keys) != len(set(keys)):
        raise Bad("payload repeats a key")
    return dict(pairs)


def _no_float(text):
    raise Bad("payload holds a non-integer number (%s); leaves write those as strings" % text)


def _no_constant(text):
    raise Bad("payload holds %s" % text)


def read_leaf(payload):
    try:
        leaf = json.loads(payload, object_pairs_hook=_no_duplicates, parse_float=_no_float, parse_constant=_no_constant)
    except ValueError as e:
        raise Bad("payload is not JSON: %s" % e)
    if not isinstance(leaf, dict):
        raise Bad("payload is not a JSON object")
    for key, value in leaf.items():
        if isinstance(value, bool) or not (value is None or isinstance(value, str) or isinstance(value, int)):
            raise Bad("field %s is not a string, an integer or null" % key)
        if isinstance(value, int) and abs(value) > MAX_SAFE_INTEGER:
            raise Bad("field %s is beyond 2^53 - 1" % key)
    if canonical(leaf) != payload:
        raise Bad("payload is not in canonical form")
    fields = LEAF_FORMATS.get((leaf.get("track"), leaf.get("leaf_version")))
    if fields is None:
        raise Bad("unknown leaf format %r v%r" % (leaf.get("track"), leaf.get("leaf_version")))
    if sorted(leaf) != fields:
        raise Bad("fields differ from %s v%s" % (leaf["track"], leaf["leaf_version"]))
    return leaf


def parse_utc_millis(text, what):
    if not isinstance(text, str) or not ISO_MILLIS.match(text):
        raise Bad("%s is not YYYY-MM-DDTHH:MM:SS.sssZ" % what)
    try:
        return datetime.strptime(text, "%Y-%m-%dT%H:%M:%S.%fZ").replace(tzinfo=timezone.utc)
    except ValueError:
        raise Bad("%s is not a real time" % what)


def expected_shape(index, count):
    """(side, self_paired) per step from the leaf up: the odd last node of a level pairs with itself."""
    if not (isinstance(count, int) and not isinstance(count, bool) and count >= 1):
        raise Bad("leaf_count is not an integer >= 1")
    if not (isinstance(index, int) and not isinstance(index, bool) and 0 <= index < count):
        raise Bad("leaf_index is outside 0..leaf_count-1")
    shape = []
    while count > 1:
        if index % 2 == 1:
            shape.append(("left", False))
        else:
            shape.append(("right", index + 1 >= count))
        index //= 2
        count = (count + 1) // 2
    return shape


def verify(doc):
    if not isinstance(doc, dict):
        raise Bad("proof is not a JSON object")
    payload = doc.get("leaf_payload")
    if not isinstance(payload, str):
        raise Bad("leaf_payload is not a string")
    leaf = read_leaf(payload)
    if isinstance(doc.get("leaf_version"), bool):
        raise Bad("leaf_version is not an integer")
    if leaf["track"] != doc.get("track") or leaf["leaf_version"] != doc.get("leaf_version"):
        raise Bad("payload track or leaf version differs from the proof")
    hour = parse_utc_millis(doc.get("hour"), "hour")
    if hour.minute or hour.second or hour.microsecond:
        raise Bad("hour does not start on a whole hour")
    time_field = TIME_FIELDS.get((leaf["track"], leaf["leaf_version"]), "predicted_at")
    at = parse_utc_millis(leaf[time_field], time_field)
    if not (hour <= at < hour + timedelta(hours=1)):
        raise Bad("leaf %s is outside the hour" % time_field)

    for name in ("leaf_hash", "merkle_root_hex"):
        if not isinstance(doc.get(name), str) or not HEX64.match(doc[name]):
            raise Bad("%s is not 64 lowercase hex digits" % name)
    node = hashlib.sha256(payload.encode("utf-8")).digest()
    if node.hex() != doc["leaf_hash"]:
        raise Bad("leaf_hash is not SHA-256 of the payload")

    shape = expected_shape(doc.get("leaf_index"), doc.get("leaf_count"))
    siblings = doc.get("siblings")
    if not isinstance(siblings, list) or len(siblings) != len(shape):
        raise Bad("a leaf of %s has %d siblings" % (doc.get("leaf_count"), len(shape)))
    for i, (step, (side, self_paired)) in enumerate(zip(siblings, shape)):
        if not isinstance(step, dict) or not isinstance(step.get("hash"), str) or not HEX64.match(step["hash"]):
            raise Bad("sibling %d is not 64 lowercase hex digits" % i)
        if step.get("side") != side:
            raise Bad("sibling %d should be on the %s" % (i, side))
        sibling = bytes.fromhex(step["hash"])
        if self_paired and sibling != node:
            raise Bad("sibling %d pairs the node with itself and must equal it" % i)
        node = hashlib.sha256(sibling + node if side == "left" else node + sibling).digest()
    if node.hex() != doc["merkle_root_hex"]:
        raise Bad("path does not arrive at the root")
    return "%s v%d leaf %d/%d root %s" % (leaf["track"], leaf["leaf_version"], doc["leaf_index"], doc["leaf_count"], node.hex())


def fetch_json(url):
    with urllib.request.urlopen(url, timeout=30) as r:
        return json.loads(r.read().decode("utf-8"))


def matches_published_commit(base_url, doc):
    """Step 5: the proof's track, hour, leaf count and root are the commit the list publishes for that hour."""
    hour = parse_utc_millis(doc.get("hour"), "hour")
    since = int(hour.timestamp()) - 1
    listed = fetch_json("%s/api/ledger/commits?since=%d&limit=1&track=%s" % (base_url, since, doc["track"]))
    commits = [c for c in listed.get("commits", []) if c.get("hour_start") == doc["hour"]]
    if not commits:
        raise Bad("no published commit for hour %s" % doc["hour"])
    c = commits[0]
    for ours, theirs in (("track", "track"), ("leaf_count", "leaf_count"), ("merkle_root_hex", "merkle_root_hex")):
        if doc.get(ours) != c.get(theirs):
            raise Bad("proof %s differs from the published commit" % ours)


def fetch_and_verify(base_url, ids, track="grad_prob"):
    failures = 0
    for i, pid in enumerate(ids):
        try:
            doc = fetch_json("%s/api/ledger/proof/%s?track=%s" % (base_url, pid, track))
            if doc.get("track") != track:
                raise Bad("proof of track %s served for track %s" % (doc.get("track"), track))
            verdict = verify(doc)
            matches_published_commit(base_url, doc)
            print("OK   proof %d: %s" % (i, verdict))
        except Bad as e:
            failures += 1
            print("FAIL proof %d: %s" % (i, e))
        except (OSError, ValueError) as e:
            failures += 1
            print("FAIL proof %d: cannot fetch: %s" % (i, e))
    return 1 if failures or not ids else 0


def read_json(path):
    raw = sys.stdin.buffer.read() if path == "-" else open(path, "rb").read()
    return json.loads(raw.decode("utf-8"))


def main(argv):
    if argv == ["--formats"]:
        out = {"%s/%d" % key: fields for key, fields in sorted(LEAF_FORMATS.items())}
        sys.stdout.write(json.dumps(out, sort_keys=True) + "\n")
        return 0
    if len(argv) >= 5 and argv[0] == "--fetch" and argv[2] == "--track":
        return fetch_and_verify(argv[1].rstrip("/"), argv[4:], argv[3])
    if len(argv) >= 3 and argv[0] == "--fetch":
        return fetch_and_verify(argv[1].rstrip("/"), argv[2:])
    if len(argv) == 2 and argv[0] == "--canonical":
        sys.stdout.buffer.write(canonical(read_json(argv[1])).encode("utf-8"))
        return 0
    if len(argv) != 1 or argv[0].startswith("--"):
        sys.stderr.write(__doc__)
        return 2
    try:
        data = read_json(argv[0])
    except (OSError, ValueError) as e:
        sys.stderr.write("cannot read %s: %s\n" % (argv[0], e))
        return 2
    docs = data if isinstance(data, list) else [data]
    failures = 0
    for i, doc in enumerate(docs):
        try:
            print("OK   proof %d: %s" % (i, verify(doc)))
        except Bad as e:
            failures += 1
            print("FAIL proof %d: %s" % (i, e))
    return 1 if failures or not docs else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
