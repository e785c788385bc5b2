/** A sign-in provider refused or could not be reached; the message is for the user. */
export class ProviderError extends Error {}
