import type { Config } from "@react-router/dev/config";

export default {
  ssr: true,
  // React Router 8's behaviours, each off until this app is moved to it (each is a change of its own: route
  // context, chunks, the build, request handling, data URLs). Named so the build does not ask on every run.
  future: {
    v8_middleware: false,
    v8_splitRouteModules: false,
    v8_viteEnvironmentApi: false,
    v8_passThroughRequests: false,
    v8_trailingSlashAwareDataRequests: false,
  },
} satisfies Config;
