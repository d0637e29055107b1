import "~/i18n/full-catalogue";
import { Form, useRouteLoaderData } from "react-router";
import { useForgetReadingOnSignOut } from "~/features/reader/sign-out";
import { useTranslation } from "~/i18n/react";
import { CloseIcon } from "~/ui/icons";
import { NavLink } from "~/ui/link";
import { Modal } from "~/ui/modal";

const items = [
  { to: "/", key: "menu.home" },
  { to: "/chapters", key: "menu.chapters" },
  { to: "/wiki", key: "menu.wiki" },
  { to: "/shop", key: "menu.shop" },
  { to: "/fundraiser", key: "menu.fundraiser" },
  { to: "/account", key: "menu.account" },
  { to: "/about", key: "menu.about" },
] as const;

const adminItem = { to: "/admin", key: "menu.admin" } as const;

const guestItems = [
  { to: "/login", key: "menu.login" },
  { to: "/register", key: "menu.register" },
] as const;

const linkClass = ({ isActive }: { isActive: boolean }) =>
  `block rounded-md px-4 py-3 font-display text-base tracking-wide hover:bg-[color:var(--line)] ${
    isActive ? "text-primary" : "text-ink"
  }`;

/** The menu itself, a modal dialog (focus trapped, Escape closes) over a dimmed backdrop. */
export default function SideMenuPanel({
  open,
  close,
  signedIn,
}: {
  open: boolean;
  close: () => void;
  signedIn: boolean;
}) {
  const { t } = useTranslation();
  // An author also finds the way into the admin here (the root's data says so for authors alone).
  const author = (useRouteLoaderData("root") as { isAuthor?: true } | undefined)?.isAuthor;
  const signOut = useForgetReadingOnSignOut(close);
  return (
    <Modal
      open={open}
      onClose={close}
      labelledBy="side-menu-title"
      className="side-menu fixed inset-y-0 right-0 left-auto m-0 h-dvh max-h-none w-[min(20rem,85vw)] max-w-none flex-col gap-2 overflow-y-auto border-l border-line bg-sheet p-4 text-ink shadow-2xl open:flex"
    >
      <div className="flex items-center justify-between">
        <h2 id="side-menu-title" className="font-display text-lg text-primary">
          {t("menu.title")}
        </h2>
        <button type="button" className="btn-icon" aria-label={t("menu.close")} onClick={close}>
          <CloseIcon />
        </button>
      </div>
      <nav aria-label={t("menu.main")}>
        <ul className="flex flex-col">
          {(author ? [...items, adminItem] : items).map((item) => (
            <li key={item.to}>
              <NavLink
                to={item.to}
                end={item.to === "/"}
                className={linkClass}
                onClick={close}
                // The admin has one address (ADR 87): from a language's URL, a page load that leads there.
                reloadDocument={item === adminItem}
              >
                {t(item.key)}
              </NavLink>
            </li>
          ))}
        </ul>
        <ul className="mt-4 flex flex-col border-t border-line pt-4">
          {signedIn ? (
            <li>
              <Form method="post" action="/logout" onSubmit={signOut}>
                <button type="submit" className={`${linkClass({ isActive: false })} w-full text-left`}>
                  {t("menu.logout")}
                </button>
              </Form>
            </li>
          ) : (
            guestItems.map((item) => (
              <li key={item.to}>
                <NavLink to={item.to} className={linkClass} onClick={close}>
                  {t(item.key)}
                </NavLink>
              </li>
            ))
          )}
        </ul>
      </nav>
    </Modal>
  );
}
