import { defineEndpoints } from '../endpoint.js';
import {
  remoteEntry,
  remoteLoadedRequest,
  remoteLoadedResponse,
  remoteNameParams,
  remotesResponse,
  remoteTestResult,
  updateRemoteRequest,
} from '../remotes.js';

/**
 * The remote registry: which URL, and so which build, the shell loads for each remote. Admins change it in
 * Admin → Remotes; the shell page reads it on every load. `loaded` is the shell telling which remote it loaded.
 */
export const remoteEndpoints = defineEndpoints('remotes', {
  list: {
    method: 'GET',
    path: '/api/admin/remotes',
    summary: 'The remote registry: URL, version its manifest states, previous URL, last loaded',
    access: 'admin',
    response: remotesResponse,
  },
  update: {
    method: 'PUT',
    path: '/api/admin/remotes/:name',
    summary: "Point a remote at another build's mf-manifest.json (https, or http on loopback); the old URL is kept for rollback",
    access: 'admin',
    params: remoteNameParams,
    body: updateRemoteRequest,
    response: remoteEntry,
  },
  rollback: {
    method: 'POST',
    path: '/api/admin/remotes/:name/rollback',
    summary: 'Swap a remote back to its previous URL',
    access: 'admin',
    params: remoteNameParams,
    response: remoteEntry,
  },
  test: {
    method: 'POST',
    path: '/api/admin/remotes/:name/test',
    summary: "Fetch the remote's manifest server-side: reachable, version, compatibility with the shell",
    access: 'admin',
    params: remoteNameParams,
    response: remoteTestResult,
  },
  loaded: {
    method: 'POST',
    path: '/api/remotes/:name/loaded',
    summary: 'The shell loaded a remote from the given URL (recorded as last loaded, at most once a minute)',
    access: 'public',
    params: remoteNameParams,
    body: remoteLoadedRequest,
    bodyLimit: '4kb',
    response: remoteLoadedResponse,
  },
});
