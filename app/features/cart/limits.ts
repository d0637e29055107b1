// The cart's limits, apart from its schemas: the add-to-cart form on every shop page needs the first, and
// importing it from lines.ts would bring zod (21 KB) to pages that validate nothing in the browser.

/** Most units of one product and variant in a cart or an order line (the database checks it too). */
export const MAX_LINE_QUANTITY = 5;

/** Most distinct lines in one cart: bounds the cookie, the merge and every query over a cart. */
export const MAX_CART_LINES = 20;
