import {
  type LinkProps,
  type NavLinkProps,
  Link as RouterLink,
  NavLink as RouterNavLink,
} from "react-router";

/**
 * Links that animate the page change with a view transition (see app.css and ADR 5). Use these instead of
 * React Router's own, so every navigation gets the same transition.
 */
export function Link(props: LinkProps) {
  return <RouterLink viewTransition {...props} />;
}

export function NavLink(props: NavLinkProps) {
  return <RouterNavLink viewTransition {...props} />;
}
