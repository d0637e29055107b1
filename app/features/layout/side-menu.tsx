import { lazy, Suspense, useState } from "react";
import { useTranslation } from "~/i18n/react";
import { MenuIcon } from "~/ui/icons";

const loadPanel = () => import("./side-menu-panel");
const SideMenuPanel = lazy(loadPanel);

/**
 * The right-hand slide-in menu. Its panel is fetched when first wanted (a pointer over the button, focus,
 * or a press) and kept mounted afterwards: pages do not download or render a menu nobody opened.
 */
export function SideMenu({ signedIn }: { signedIn: boolean }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const [wanted, setWanted] = useState(false);
  return (
    <>
      <button
        type="button"
        className="btn-icon"
        aria-label={t("nav.openMenu")}
        aria-haspopup="dialog"
        aria-expanded={open}
        onPointerEnter={loadPanel}
        onFocus={loadPanel}
        onClick={() => {
          setWanted(true);
          setOpen(true);
        }}
      >
        <MenuIcon />
      </button>
      {wanted ? (
        <Suspense fallback={null}>
          <SideMenuPanel open={open} close={() => setOpen(false)} signedIn={signedIn} />
        </Suspense>
      ) : null}
    </>
  );
}
