/** An order's number as the reader sees it (pages, e-mail, the provider's line): "#000042". */
export function orderNumber(id: number): string {
  return `#${String(id).padStart(6, "0")}`;
}
