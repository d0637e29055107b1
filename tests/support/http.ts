import { expect } from "vitest";
import { waitForMail } from "./mail";
import { unique } from "./unique";

/** Minimal browser-less client for server tests: form posts with a same-origin browser's headers, cookies by hand. */
export class Client {
  cookies = new Map<string, string>();
  constructor(readonly base: string) {}

  get cookieHeader(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join("; ");
  }

  private remember(response: Response) {
    for (const header of response.headers.getSetCookie()) {
      const [pair = ""] = header.split(";");
      const index = pair.indexOf("=");
      const name = pair.slice(0, index);
      const value = pair.slice(index + 1);
      if (/Max-Age=0/i.test(header) || value === "") this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }

  async get(path: string, headers: Record<string, string> = {}): Promise<Response> {
    const response = await fetch(`${this.base}${path}`, {
      headers: { cookie: this.cookieHeader, ...headers },
      redirect: "manual",
    });
    this.remember(response);
    return response;
  }

  async post(
    path: string,
    fields: Record<string, string>,
    headers: Record<string, string> = {},
  ): Promise<Response> {
    const response = await fetch(`${this.base}${path}`, {
      method: "POST",
      body: new URLSearchParams(fields),
      headers: { cookie: this.cookieHeader, origin: this.base, "sec-fetch-site": "same-origin", ...headers },
      redirect: "manual",
    });
    this.remember(response);
    return response;
  }
}

/**
 * Registers through the form, which signs the new reader in and answers with the redirect to /welcome
 * (ADR 56); returns that answer once the welcome e-mail (which confirms the address) has arrived, so a
 * test's later look for the reader's e-mails never finds it instead.
 */
export async function registerAndSignIn(
  client: Client,
  who: { username: string; email: string; password: string },
  welcomeMail: (to: string) => Promise<string>,
  headers: Record<string, string> = {},
): Promise<Response> {
  const registered = await client.post(
    "/register",
    {
      username: who.username,
      email: who.email,
      password: who.password,
      confirmPassword: who.password,
      acceptTerms: "on",
    },
    headers,
  );
  if (registered.status !== 302) throw new Error(`registration answered ${registered.status}`);
  const mail = await welcomeMail(who.email);
  if (!mail.includes("/confirm-email?token=")) throw new Error("no welcome e-mail");
  return registered;
}

/** Confirms the registered reader's address with the welcome e-mail's link, as its button does (ADR 56). */
export async function confirmAddress(client: Client, dataDir: string, email: string): Promise<void> {
  const mail = await waitForMail(dataDir, email, { containing: "/confirm-email?token=" });
  const token = /\/confirm-email\?token=([\w-]+)/.exec(mail)?.[1];
  if (!token) throw new Error("no confirmation link");
  const confirmed = await client.post("/confirm-email", { intent: "confirm", token });
  if (confirmed.status !== 200) throw new Error(`confirmation answered ${confirmed.status}`);
}

/**
 * Registers a reader with a fresh name, which signs `client` in; returns the name. `confirmed`: the address
 * is confirmed too (what a reader needs to comment).
 */
export async function registerReader(
  client: Client,
  dataDir: string,
  prefix = "reader",
  { confirmed = false } = {},
): Promise<string> {
  const name = unique(prefix);
  const response = await registerAndSignIn(
    client,
    { username: name, email: `${name}@example.com`, password: "first secret" },
    (to) => waitForMail(dataDir, to),
  );
  if (response.status !== 302) throw new Error(`registration answered ${response.status}`);
  if (confirmed) await confirmAddress(client, dataDir, `${name}@example.com`);
  return name;
}

/** Cart, checkout and the test provider's approval, as a reader's browser posts them. */
export async function buyArtPrint(client: Client) {
  const added = await client.post("/cart", { intent: "add", productId: "3", variantId: "1", quantity: "1" });
  expect(added.status).toBe(302);
  const checkout = await client.post("/checkout", {
    shipName: "Ilse Marrow",
    shipLine1: "12 Lantern Row",
    shipCity: "New Lumen",
    shipPostalCode: "NL-1207",
    shipCountry: "GB",
  });
  expect(checkout.status).toBe(303);
  const paid = await client.post(checkout.headers.get("location") ?? "", { decision: "approve" });
  expect(paid.status).toBe(302);
}

/** A reading-progress write with one bookmark, as the chapter page posts it. */
export function saveBookmark(client: Client, chapter: number, bookmark: number): Promise<Response> {
  const progress = {
    scrollPosition: 0.1,
    paragraph: 1,
    completionPercentage: 10,
    readingTime: 5,
    completed: false,
    bookmarks: [bookmark],
    lastReadAt: new Date().toISOString(),
  };
  return fetch(`${client.base}/reader/progress`, {
    method: "POST",
    body: JSON.stringify({ entries: [{ chapter, progress }] }),
    headers: { cookie: client.cookieHeader, origin: client.base, "sec-fetch-site": "same-origin" },
  });
}
