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

let registrations = 0;

/** Registers a new reader through the form, leaving the client signed in; returns the username. */
export async function register(client: Client, prefix = "reader"): Promise<string> {
  registrations++;
  const name = `${prefix}${registrations}${Date.now().toString(36)}`;
  const response = await client.post("/register", {
    username: name,
    email: `${name}@example.com`,
    password: "first secret",
    confirmPassword: "first secret",
    acceptTerms: "on",
  });
  if (response.status !== 302) throw new Error(`registration answered ${response.status}`);
  return name;
}
