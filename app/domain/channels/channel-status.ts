/** A channel's `status` column (the reference's numbers). Safe for pages: no server code. */
export const CHANNEL_STATUS = { enabled: 1, manuallyDisabled: 2, autoDisabled: 3 } as const;
