import { lazy, Suspense } from "react";
import { useTranslation } from "~/i18n/react";
import { MenuIcon } from "~/ui/icons";
import { useLazyDialog } from "~/ui/lazy-dialog";

const loadPanel = () => import("./side-menu-panel");
const SideMenuPanel = lazy(loadPanel);

/**
 * The right-hand slide-in menu; its panel is fetched when first wanted. Its opener is a link to the footer's
 * list of the site's sections (app/root.tsx), where it leads without JavaScript; with it, a click or Enter
 * opens the panel instead (`aria-haspopup` says so).
 */
export function SideMenu({ signedIn }: { signedIn: boolean }) {
  const { t } = useTranslation();
  const menu = useLazyDialog(loadPanel);
  return (
    <>
      <a
        href="#site-nav"
        className="btn-icon"
        aria-label={t("nav.openMenu")}
        aria-haspopup="dialog"
        aria-expanded={menu.open}
        {...menu.triggerProps}
      >
        <MenuIcon />
      </a>
      {menu.mounted ? (
        <Suspense fallback={null}>
          <SideMenuPanel open={menu.open} close={() => menu.setOpen(false)} signedIn={signedIn} />
        </Suspense>
      ) : null}
    </>
  );
}
