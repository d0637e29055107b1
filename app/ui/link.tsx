import { type LinkProps, Link as RouterLink, useLocation } from "react-router";

/**
 * Links that animate the page change with a view transition (see app.css and ADR 5). Use these instead of
 * React Router's own, so every navigation gets the same transition.
 */
export function Link(props: LinkProps) {
  return <RouterLink viewTransition {...props} />;
}

/**
 * A link marked as the current page (`aria-current`, and its class's `isActive`) where the location is its
 * path or, unless `end`, below it. React Router's `NavLink` does the same with pending and transition states
 * this site does not show; it would add 0.5 KB (brotli) to every page's scripts.
 */
export function NavLink({
  to,
  end,
  className,
  ...props
}: Omit<LinkProps, "to" | "className"> & {
  to: string;
  end?: boolean;
  className?: string | ((state: { isActive: boolean }) => string);
}) {
  const { pathname } = useLocation();
  const isActive = pathname === to || (!end && pathname.startsWith(to.endsWith("/") ? to : `${to}/`));
  return (
    <Link
      to={to}
      className={typeof className === "function" ? className({ isActive }) : className}
      aria-current={isActive ? "page" : undefined}
      {...props}
    />
  );
}
