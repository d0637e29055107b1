import { data, redirect } from "react-router";
import { routerPath } from "~/i18n/urls";
import { getSessionUser, type SessionUser } from "./session.server";

/**
 * The checks a route makes before its work, each a function that returns the reader or throws the answer:
 * a page sends visitors to sign in, an API answers JSON, so no route writes the check by hand.
 */

export type Role = SessionUser["role"];

/** Roles from least to most trusted: an author may do whatever a reader may. */
const ranks: Record<Role, number> = { reader: 0, author: 1 };

/** The policy behind `requireAuthor`, pure so it can be tested without a request. */
export function hasRole(user: Pick<SessionUser, "role">, role: Role): boolean {
  return ranks[user.role] >= ranks[role];
}

function signInRedirect(request: Request): Response {
  const url = new URL(request.url);
  // A client navigation asks for `/path.data`; the reader comes back to the page itself.
  const path = url.pathname.replace(/\.data$/, "");
  // Under a language's URL the router prefixes both the sign-in page and the way back (i18n/urls.ts).
  const params = new URLSearchParams({ redirectTo: `${routerPath(url.pathname, path)}${url.search}` });
  return redirect(`/login?${params}`);
}

/** Sends visitors to sign in, remembering where they were going. */
export async function requireUser(request: Request): Promise<SessionUser> {
  const user = await getSessionUser(request);
  if (user) return user;
  throw signInRedirect(request);
}

/** Pages for visitors only (sign-in, registration): a signed-in reader is sent on to `to`. */
export async function requireAnonymous(request: Request, to = "/account"): Promise<void> {
  if (await getSessionUser(request)) throw redirect(to);
}

/** For resource routes called by the page's scripts: a visitor gets a JSON 401, not a sign-in page. */
export async function requireUserForApi(
  request: Request,
  /** `getKeptSessionUser` for the reading-progress endpoints (ADR 79); the session read afresh by default. */
  lookUp: (request: Request) => Promise<SessionUser | undefined> = getSessionUser,
): Promise<SessionUser> {
  const user = await lookUp(request);
  if (user) return user;
  throw Response.json({ error: "signed-out" }, { status: 401 });
}

/**
 * The author's admin: anyone else, visitor or reader, gets the site's ordinary 404, so the admin's existence
 * is not advertised (no sign-in redirect, no 403). Every admin loader and action calls it.
 */
export async function requireAuthor(request: Request): Promise<SessionUser> {
  const user = await getSessionUser(request);
  if (user && hasRole(user, "author")) return user;
  throw data(null, { status: 404 });
}
