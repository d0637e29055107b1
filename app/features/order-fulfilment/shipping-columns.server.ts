import { orders } from "#db/schema";

/** An order's shipping address columns, as its pages, the admin and the e-mails read them. */
export const shippingColumns = {
  shipName: orders.shipName,
  shipLine1: orders.shipLine1,
  shipLine2: orders.shipLine2,
  shipCity: orders.shipCity,
  shipPostalCode: orders.shipPostalCode,
  shipCountry: orders.shipCountry,
};
