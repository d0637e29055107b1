import crypto from "node:crypto";
import { isoCBOR } from "@simplewebauthn/server/helpers";

/**
 * A passkey in software for the integration tests: an ES256 key pair answering WebAuthn's registration
 * ("none" attestation) and authentication ceremonies as an authenticator with user verification does, for
 * `origin`. The browser tests use Chromium's virtual authenticator instead (tests/e2e/passkeys.spec.ts).
 */
export function softwarePasskey(origin: string) {
  const { privateKey, publicKey } = crypto.generateKeyPairSync("ec", { namedCurve: "P-256" });
  const jwk = publicKey.export({ format: "jwk" });
  const rawId = crypto.randomBytes(16);
  const id = rawId.toString("base64url");
  const rpIdHash = crypto.createHash("sha256").update(new URL(origin).hostname).digest();
  let counter = 0;

  const clientData = (type: string, challenge: string) =>
    Buffer.from(JSON.stringify({ type, challenge, origin, crossOrigin: false }));
  /** rpIdHash, flags (user present 0x01, verified 0x04, attested credential 0x40), counter, then `rest`. */
  const authenticatorData = (flags: number, rest = Buffer.alloc(0)) => {
    const count = Buffer.alloc(4);
    count.writeUInt32BE(counter);
    return Buffer.concat([rpIdHash, Buffer.from([flags]), count, rest]);
  };

  return {
    id,
    /** The browser's answer to registration options with this `challenge`. */
    register(challenge: string) {
      const coseKey = new Map<number, number | Uint8Array>([
        [1, 2], // kty: EC2
        [3, -7], // alg: ES256
        [-1, 1], // crv: P-256
        [-2, Buffer.from(jwk.x ?? "", "base64url")],
        [-3, Buffer.from(jwk.y ?? "", "base64url")],
      ]);
      const length = Buffer.alloc(2);
      length.writeUInt16BE(rawId.length);
      const attested = Buffer.concat([Buffer.alloc(16), length, rawId, Buffer.from(isoCBOR.encode(coseKey))]);
      const attestation: Map<string, string | Uint8Array | Map<string, string>> = new Map();
      attestation.set("fmt", "none");
      attestation.set("attStmt", new Map());
      attestation.set("authData", authenticatorData(0x45, attested));
      const attestationObject = isoCBOR.encode(attestation);
      return {
        id,
        rawId: id,
        type: "public-key",
        response: {
          clientDataJSON: clientData("webauthn.create", challenge).toString("base64url"),
          attestationObject: Buffer.from(attestationObject).toString("base64url"),
          transports: ["internal"],
        },
        clientExtensionResults: {},
      };
    },
    /** The browser's answer to authentication options with this `challenge` (the counter moves on). */
    sign(challenge: string) {
      counter += 1;
      const data = authenticatorData(0x05);
      const client = clientData("webauthn.get", challenge);
      const signed = Buffer.concat([data, crypto.createHash("sha256").update(client).digest()]);
      return {
        id,
        rawId: id,
        type: "public-key",
        response: {
          clientDataJSON: client.toString("base64url"),
          authenticatorData: data.toString("base64url"),
          signature: crypto.sign("sha256", signed, privateKey).toString("base64url"),
        },
        clientExtensionResults: {},
      };
    },
  };
}
