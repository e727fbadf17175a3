/**
 * TLS material of a sandbox run, generated at start and never written anywhere except a
 * kubeconfig the operator asks for: a self-signed CA, and a server certificate it signs
 * for the loopback names (127.0.0.1, localhost, ::1). kubectl sends bearer tokens only
 * over TLS, so the sandbox serves HTTPS even on loopback. EC P-256 keys keep start-up fast.
 */
import { generate } from 'selfsigned';

/** PEM-encoded CA certificate, server certificate and server key. */
export interface SandboxTls {
  caPem: string;
  certPem: string;
  keyPem: string;
}

/** Generate a fresh CA and a loopback server certificate valid for a year. */
export async function generateTls(): Promise<SandboxTls> {
  const notAfterDate = new Date(Date.now() + 365 * 24 * 3600 * 1000);
  const ca = await generate([{ name: 'commonName', value: 'agent-manager-sandbox-ca' }], {
    keyType: 'ec', algorithm: 'sha256', notAfterDate,
    extensions: [
      { name: 'basicConstraints', cA: true, critical: true },
      { name: 'keyUsage', keyCertSign: true, cRLSign: true, digitalSignature: true, critical: true },
    ],
  });
  const server = await generate([{ name: 'commonName', value: 'agent-manager-sandbox' }], {
    keyType: 'ec', algorithm: 'sha256', notAfterDate,
    ca: { key: ca.private, cert: ca.cert },
    extensions: [
      { name: 'basicConstraints', cA: false },
      { name: 'keyUsage', digitalSignature: true, keyEncipherment: true, critical: true },
      { name: 'extKeyUsage', serverAuth: true },
      { name: 'subjectAltName', altNames: [{ type: 2, value: 'localhost' }, { type: 7, ip: '127.0.0.1' },
        { type: 7, ip: '::1' }] },
    ],
  });
  return { caPem: ca.cert, certPem: server.cert, keyPem: server.private };
}
