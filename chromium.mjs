// Debian's Chromium, as every browser run here starts it (Playwright tests, the bench, Lighthouse):
// browser downloads are impossible on these machines.
export const chromium = {
  executablePath: process.env.CHROMIUM_PATH ?? process.env.CHROME_PATH ?? "/usr/bin/chromium",
  args: [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-quic",
    "--no-first-run",
    "--disable-component-update",
    "--disable-sync",
  ],
};
