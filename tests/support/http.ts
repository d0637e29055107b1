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
 * Registers through the form, which answers alike for every e-mail and creates the account after its answer
 * (ADR 16); once the welcome e-mail says the account is there, signs in as the e-mail's link does.
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
  if (registered.status !== 200) throw new Error(`registration answered ${registered.status}`);
  const mail = await welcomeMail(who.email);
  if (!mail.includes("/login?redirectTo=%2Fwelcome")) throw new Error("no welcome e-mail");
  return client.post("/login", { email: who.email, password: who.password, redirectTo: "/welcome" }, headers);
}

/** Registers a reader with a fresh name and signs `client` in, as the welcome e-mail's link does; returns the name. */
export async function registerReader(client: Client, dataDir: string, prefix = "reader"): Promise<string> {
  const name = unique(prefix);
  const response = await registerAndSignIn(
    client,
    { username: name, email: `${name}@example.com`, password: "first secret" },
    (to) => waitForMail(dataDir, to),
  );
  if (response.status !== 302) throw new Error(`sign-in after registration answered ${response.status}`);
  return name;
}
