/** Coins granted once, through the ledger, when an account is created. */
export const WELCOME_COINS = 3;
