import Bowser from "bowser";

/** What the sessions list says of a device: its browser and system, each null when the agent does not say. */
export type Device = { browser: string | null; os: string | null; mobile: boolean };

/**
 * The browser and operating system a session's User-Agent names (bowser, the maintained parser), for the
 * reader to recognise their devices. The agent is the client's say-so, capped at 300 characters when stored:
 * shown as text only, never trusted.
 */
export function describeDevice(userAgent: string | null): Device {
  if (!userAgent) return { browser: null, os: null, mobile: false };
  const parsed = Bowser.parse(userAgent.slice(0, 300));
  return {
    browser: parsed.browser.name || null,
    os: parsed.os.name || null,
    mobile: parsed.platform.type === "mobile" || parsed.platform.type === "tablet",
  };
}
