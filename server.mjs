// The process entry. Production runs the built server (build/server/index.js, compiled from
// server/app.ts by `react-router build`); development loads the same module through Vite.
const production = process.env.NODE_ENV === "production";

async function main() {
  if (production) {
    const { start } = await import("./build/server/index.js");
    await start();
    return;
  }
  const { createServer } = await import("vite");
  const vite = await createServer({ server: { middlewareMode: true }, appType: "custom" });
  const { start } = await vite.ssrLoadModule("./server/app.ts");
  await start({ vite });
}

main().catch((error) => {
  // Configuration and lock errors carry a message meant for the operator: print it plainly.
  const plain = error?.name === "ConfigError" || error?.name === "DataDirLockedError";
  console.error(plain ? error.message : error);
  process.exit(1);
});
