/** Types shared by the lists of areas (settings, activity areas, API areas); no area is named here. */

export type UnionToIntersection<U> = (U extends unknown ? (x: U) => void : never) extends (x: infer I) => void ? I : never;

/** Replacements for some of an area's dependencies, by area name (tests, scripts). */
export type OverridesByName<Area extends { name: string; deps: (ctx: never) => unknown }> = {
  [A in Area as A['name']]?: Partial<ReturnType<A['deps']>>;
};
