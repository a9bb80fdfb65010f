/** Through the free beta window keyed endpoints answer without a key (spec section 5); after it a key is required. */
export const DEFAULT_KEY_REQUIRED_AFTER = '2026-07-07T23:59:59Z';

export const betaWindowOpen = (now: Date, keyRequiredAfter: Date): boolean => now.getTime() <= keyRequiredAfter.getTime();
