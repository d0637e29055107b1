import { shippingAddressLines } from "~/features/order-fulfilment/address";
import { useTranslation } from "~/i18n/react";
import { Panel } from "~/ui/page";

/** Where an order goes, a line each, in its panel; nothing for an order with nothing to ship. */
export function ShippingAddress({ order }: { order: Parameters<typeof shippingAddressLines>[0] }) {
  const { t } = useTranslation();
  const address = shippingAddressLines(order);
  if (!address.length) return null;
  return (
    <Panel id="order-address" title={t("orders.shipTo")}>
      <address className="not-italic" data-testid="order-address">
        {address.map((part) => (
          <span key={part} className="block">
            {part}
          </span>
        ))}
      </address>
    </Panel>
  );
}
