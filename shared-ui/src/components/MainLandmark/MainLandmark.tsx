import { createContext, forwardRef, useContext, type HTMLAttributes, type Ref } from 'react';

const InsideMain = createContext(false);

/**
 * The page's one <main> landmark, the target of the "Skip to content" link (#main). Use it as the `component` of a
 * page's outermost Container or Box: the first one on the page renders <main id="main">, any inside it a plain <div>.
 * So a remote's page has its landmark when it runs alone, and inside the shell (whose page area is the landmark) it
 * adds no second one.
 */
export const MainLandmark = forwardRef<HTMLElement, HTMLAttributes<HTMLElement>>(function MainLandmark({ children, ...props }, ref) {
  const inside = useContext(InsideMain);
  if (inside) {
    return (
      <div ref={ref as Ref<HTMLDivElement>} {...props}>
        {children}
      </div>
    );
  }
  // tabIndex -1: the skip link moves focus here, so the next Tab continues from the page's content.
  return (
    <InsideMain.Provider value>
      <main ref={ref} id="main" tabIndex={-1} {...props} style={{ outline: 'none', ...props.style }}>
        {children}
      </main>
    </InsideMain.Provider>
  );
});
