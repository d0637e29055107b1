// The EPUB download (ADR 89) on the long serial: a signed-in reader's first download of a volume (a build:
// access, text, pictures, cover, zip) and their second (the kept file), for up to 12 volumes (within the
// download limit of 30 an hour), and the whole serial once built and once kept, with its size. Sequential
// requests, timed from the client: the figure is how long a reader waits, not a throughput.

import { memoryTrail, signedIn, startApp } from "./lib.mjs";
import { median } from "./median.mjs";

async function timed(url, cookie) {
  const started = performance.now();
  const response = await fetch(url, { headers: { Cookie: cookie } });
  const bytes = (await response.arrayBuffer()).byteLength;
  if (response.status !== 200) throw new Error(`${url}: ${response.status}`);
  return { ms: Math.round(performance.now() - started), bytes };
}

export default async function measure(results) {
  const app = await startApp({ name: "epub", large: true });
  try {
    const { cookie } = await signedIn(app.base);
    const toc = await (await fetch(`${app.base}/toc`)).text();
    const volumes = [...new Set([...toc.matchAll(/href="\/epub\/volume\/(\d+)"/g)].map((m) => m[1]))].slice(
      0,
      12,
    );
    const builds = [];
    const kept = [];
    for (const volume of volumes) {
      builds.push((await timed(`${app.base}/epub/volume/${volume}`, cookie)).ms);
      kept.push((await timed(`${app.base}/epub/volume/${volume}`, cookie)).ms);
    }
    const serial = await timed(`${app.base}/epub`, cookie);
    const serialKept = await timed(`${app.base}/epub`, cookie);
    results.epub = {
      volumes: volumes.length,
      build: { medianMs: median(builds) },
      kept: { medianMs: median(kept) },
      serialBuild: { medianMs: serial.ms, bytes: serial.bytes },
      serialKept: { medianMs: serialKept.ms },
    };
    memoryTrail.push({
      server: app.name,
      run: "epub downloads",
      rssMB: Math.round(app.rssMB()),
      peakRssMB: Math.round(app.peakRssMB()),
    });
  } finally {
    await app.stop();
  }
}
