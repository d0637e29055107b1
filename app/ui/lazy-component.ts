import { type ComponentType, lazy } from "react";

/** React's `lazy` for a component a module exports by name: its code is fetched when it first renders. */
export function lazyComponent<Props, Name extends string>(
  load: () => Promise<Record<Name, ComponentType<Props>>>,
  name: Name,
) {
  return lazy(async () => ({ default: (await load())[name] }));
}
