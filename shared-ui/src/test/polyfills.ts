import { TextDecoder, TextEncoder } from 'node:util';

// jsdom lacks these; React Router reads them at import time.
Object.assign(globalThis, { TextEncoder, TextDecoder });

// jsdom has no PointerEvent; without it fireEvent.pointer* drops clientX (the toast swipe reads it).
if (typeof window !== 'undefined' && !('PointerEvent' in window)) {
  class PointerEventPolyfill extends MouseEvent {
    readonly pointerId: number;
    constructor(type: string, init: PointerEventInit = {}) {
      super(type, init);
      this.pointerId = init.pointerId ?? 1;
    }
  }
  Object.assign(window, { PointerEvent: PointerEventPolyfill });
}
