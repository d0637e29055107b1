import fs from "node:fs";
import path from "node:path";

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

/** The first e-mail to `to` written to a server's outbox (DATA_DIR/outbox, the default with no SMTP_URL), decoded. */
export async function outboxMail(dataDir: string, to: string, timeoutMs = 15_000): Promise<string> {
  const outbox = path.join(dataDir, "outbox");
  const started = Date.now();
  while (Date.now() - started < timeoutMs) {
    for (const file of fs.existsSync(outbox) ? fs.readdirSync(outbox).sort() : []) {
      const text = fs.readFileSync(path.join(outbox, file), "utf8");
      if (text.includes(`To: ${to}`))
        return text
          .replace(/=\r?\n/g, "")
          .replace(/=([0-9A-F]{2})/g, (_, hex) => String.fromCharCode(Number.parseInt(hex, 16)));
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`no e-mail to ${to}`);
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

let registrations = 0;

/** Registers a reader with a fresh name and signs `client` in, as the welcome e-mail's link does; returns the name. */
export async function registerReader(client: Client, dataDir: string, prefix = "reader"): Promise<string> {
  registrations++;
  const name = `${prefix}${registrations}${Date.now().toString(36)}`;
  const response = await registerAndSignIn(
    client,
    { username: name, email: `${name}@example.com`, password: "first secret" },
    (to) => outboxMail(dataDir, to),
  );
  if (response.status !== 302) throw new Error(`sign-in after registration answered ${response.status}`);
  return name;
}
