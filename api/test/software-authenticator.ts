import crypto from 'node:crypto';

/**
 * A WebAuthn authenticator in software, as a browser with a platform authenticator answers
 * `navigator.credentials.create()` and `.get()`: ES256 keys, "none" attestation, user presence and verification, a
 * signature counter, and discoverable credentials (the user handle comes back on sign-in). It produces the JSON that
 * @simplewebauthn/browser hands to the server, so the api's verification runs on real attestation and assertion
 * bytes.
 */

type CborValue = number | string | Buffer | CborValue[] | Map<CborValue, CborValue> | { [key: string]: CborValue };

/** Just enough CBOR (RFC 8949) for WebAuthn: integers, byte and text strings, arrays and maps. */
export function cbor(value: CborValue): Buffer {
  const head = (major: number, n: number): Buffer => {
    if (n < 24) return Buffer.from([(major << 5) | n]);
    if (n < 256) return Buffer.from([(major << 5) | 24, n]);
    if (n < 65536) return Buffer.from([(major << 5) | 25, n >> 8, n & 0xff]);
    const b = Buffer.alloc(5);
    b[0] = (major << 5) | 26;
    b.writeUInt32BE(n, 1);
    return b;
  };
  if (typeof value === 'number') return value >= 0 ? head(0, value) : head(1, -1 - value);
  if (typeof value === 'string') {
    const bytes = Buffer.from(value, 'utf8');
    return Buffer.concat([head(3, bytes.length), bytes]);
  }
  if (Buffer.isBuffer(value)) return Buffer.concat([head(2, value.length), value]);
  if (Array.isArray(value)) return Buffer.concat([head(4, value.length), ...value.map(cbor)]);
  const entries = value instanceof Map ? [...value.entries()] : Object.entries(value);
  return Buffer.concat([head(5, entries.length), ...entries.flatMap(([k, v]) => [cbor(k), cbor(v)])]);
}

const b64u = (b: Buffer) => b.toString('base64url');
const sha256 = (data: Buffer | string) => crypto.createHash('sha256').update(data).digest();

export interface StoredCredential {
  id: Buffer;
  privateKey: crypto.KeyObject;
  rpId: string;
  userHandle: string;
  signCount: number;
}

export interface SoftwareAuthenticator {
  credentials: StoredCredential[];
  /** Answers registration options (PublicKeyCredentialCreationOptionsJSON) as the browser library would. */
  register(
    options: { challenge: string; rp: { id?: string }; user: { id: string } },
    origin: string,
    tweak?: { userVerified?: boolean },
  ): Record<string, unknown>;
  /** Answers sign-in options with the credential for the RP (the first, or the one allowed). */
  signIn(
    options: { challenge: string; rpId?: string; allowCredentials?: { id: string }[] },
    origin: string,
    tweak?: { counter?: number; userVerified?: boolean },
  ): Record<string, unknown>;
}

export function createSoftwareAuthenticator(): SoftwareAuthenticator {
  const credentials: StoredCredential[] = [];
  const clientData = (type: string, challenge: string, origin: string) => Buffer.from(JSON.stringify({ type, challenge, origin, crossOrigin: false }), 'utf8');

  return {
    credentials,
    register(options, origin, tweak = {}) {
      const rpId = options.rp.id ?? new URL(origin).hostname;
      const { privateKey, publicKey } = crypto.generateKeyPairSync('ec', { namedCurve: 'P-256' });
      const jwk = publicKey.export({ format: 'jwk' });
      const id = crypto.randomBytes(16);
      const coseKey = cbor(
        new Map<CborValue, CborValue>([
          [1, 2],
          [3, -7],
          [-1, 1],
          [-2, Buffer.from(jwk.x ?? '', 'base64url')],
          [-3, Buffer.from(jwk.y ?? '', 'base64url')],
        ]),
      );
      const idLength = Buffer.alloc(2);
      idLength.writeUInt16BE(id.length);
      // Flags: user present (0x01), user verified (0x04, unless `userVerified: false`: presence only), backup eligible and
      // state (0x08, 0x10), attested data (0x40).
      const flags = tweak.userVerified === false ? 0x59 : 0x5d;
      const authData = Buffer.concat([sha256(rpId), Buffer.from([flags]), Buffer.alloc(4), Buffer.alloc(16), idLength, id, coseKey]);
      const attestationObject = cbor({ fmt: 'none', attStmt: {}, authData });
      credentials.push({ id, privateKey, rpId, userHandle: options.user.id, signCount: 0 });
      return {
        id: b64u(id),
        rawId: b64u(id),
        type: 'public-key',
        authenticatorAttachment: 'platform',
        clientExtensionResults: {},
        response: {
          clientDataJSON: b64u(clientData('webauthn.create', options.challenge, origin)),
          attestationObject: b64u(attestationObject),
          transports: ['internal', 'hybrid'],
        },
      };
    },
    signIn(options, origin, tweak = {}) {
      const allowed = options.allowCredentials?.map((c) => c.id) ?? [];
      const rpId = options.rpId ?? new URL(origin).hostname;
      const credential = credentials.find((c) => c.rpId === rpId && (allowed.length === 0 || allowed.includes(b64u(c.id))));
      if (!credential) throw new Error('the authenticator has no credential for this site');
      credential.signCount = tweak.counter ?? credential.signCount + 1;
      const counter = Buffer.alloc(4);
      counter.writeUInt32BE(credential.signCount);
      // User present, verified (unless `userVerified: false`), backup eligible and state.
      const authenticatorData = Buffer.concat([sha256(rpId), Buffer.from([tweak.userVerified === false ? 0x19 : 0x1d]), counter]);
      const clientDataJSON = clientData('webauthn.get', options.challenge, origin);
      const signature = crypto.sign('sha256', Buffer.concat([authenticatorData, sha256(clientDataJSON)]), credential.privateKey);
      return {
        id: b64u(credential.id),
        rawId: b64u(credential.id),
        type: 'public-key',
        authenticatorAttachment: 'platform',
        clientExtensionResults: {},
        response: {
          clientDataJSON: b64u(clientDataJSON),
          authenticatorData: b64u(authenticatorData),
          signature: b64u(signature),
          userHandle: credential.userHandle,
        },
      };
    },
  };
}
