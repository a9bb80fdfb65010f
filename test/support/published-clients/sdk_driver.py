"""One call of the published Python SDK (graduate_oracle), its outcome printed as one JSON line.

usage: sdk_driver.py <base url> <api key or ""> <method> <keyword arguments as JSON>
prints {"ok": <what the method returned>} or {"error": {"status": <HTTP status>, "body": <the parsed error body>}}
"""
import json
import sys

from graduate_oracle import GradOracle, GradOracleError, __version__

base, key, method, kwargs = sys.argv[1], sys.argv[2] or None, sys.argv[3], json.loads(sys.argv[4])
try:
    if method == "mint_free_key":
        result = GradOracle.mint_free_key(base=base, **kwargs)
    else:
        result = getattr(GradOracle(api_key=key, base=base, timeout=10.0), method)(**kwargs)
    print(json.dumps({"ok": result, "version": __version__}))
except GradOracleError as e:
    print(json.dumps({"error": {"status": e.status, "body": e.body}, "version": __version__}))
