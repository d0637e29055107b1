import { useState } from "react";

/**
 * A dialog whose code is fetched when first wanted: its button's `triggerProps` ask for it on a pointer
 * over the button or focus, and open it on a press. It stays mounted from its first opening on, so it keeps
 * its state and closes the browser's way. Pages do not download or render a dialog nobody opened.
 */
export function useLazyDialog(load: () => Promise<unknown>) {
  // undefined until first opened: nothing to mount yet.
  const [open, setOpen] = useState<boolean>();
  return {
    open: open ?? false,
    mounted: open !== undefined,
    setOpen: (next: boolean) => setOpen(next),
    triggerProps: {
      onPointerEnter: load,
      onFocus: load,
      // An opener may be a link to where the reader goes without JavaScript (the side menu's): not followed.
      onClick: (event: { preventDefault(): void }) => {
        event.preventDefault();
        setOpen(true);
      },
    },
  };
}
