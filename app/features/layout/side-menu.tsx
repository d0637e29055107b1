import { lazy, Suspense } from "react";
import { useTranslation } from "~/i18n/react";
import { MenuIcon } from "~/ui/icons";
import { useLazyDialog } from "~/ui/lazy-dialog";

const loadPanel = () => import("./side-menu-panel");
const SideMenuPanel = lazy(loadPanel);

/** The right-hand slide-in menu; its panel is fetched when first wanted. */
export function SideMenu({ signedIn }: { signedIn: boolean }) {
  const { t } = useTranslation();
  const menu = useLazyDialog(loadPanel);
  return (
    <>
      <button
        type="button"
        className="btn-icon"
        aria-label={t("nav.openMenu")}
        aria-haspopup="dialog"
        aria-expanded={menu.open}
        {...menu.triggerProps}
      >
        <MenuIcon />
      </button>
      {menu.mounted ? (
        <Suspense fallback={null}>
          <SideMenuPanel open={menu.open} close={() => menu.setOpen(false)} signedIn={signedIn} />
        </Suspense>
      ) : null}
    </>
  );
}
