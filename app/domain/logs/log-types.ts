/** A log row's `type` column (the reference's numbers). Safe for pages: no server code. */
export const LOG_TYPE = { unknown: 0, topup: 1, consume: 2, manage: 3, system: 4 } as const;
