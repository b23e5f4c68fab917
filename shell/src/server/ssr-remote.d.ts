// The server render bundles remotes' ./App by these names (webpack.server.config.ts aliases them to the sources).
declare module '@radar/ssr-remote/dashboard' {
  const App: import('react').ComponentType;
  export default App;
}
declare module '@radar/ssr-remote/admin' {
  const App: import('react').ComponentType;
  export default App;
}
