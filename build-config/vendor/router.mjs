// React Router as the apps use it, shared by the shell as a singleton under 'react-router-dom' and 'react-router'
// (build-config/sharing.cjs): one router context for host and remotes, without the ~190 KB of data-router, server and
// framework code a whole-package share would carry. A name used by any app must be listed here (vendor.test.ts).
export {
  BrowserRouter,
  Link,
  MemoryRouter,
  NavLink,
  Navigate,
  Outlet,
  Route,
  Routes,
  createSearchParams,
  generatePath,
  matchPath,
  useHref,
  useInRouterContext,
  useLinkClickHandler,
  useLocation,
  useMatch,
  useNavigate,
  useNavigationType,
  useOutlet,
  useOutletContext,
  useParams,
  useResolvedPath,
  useRoutes,
  useSearchParams,
} from 'radar-vendor/react-router';
