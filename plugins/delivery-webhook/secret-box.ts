import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

/**
 * Signing secrets at rest (pure but for the random IV): AES-256-GCM under
 * a key derived (HKDF-SHA256) from Webhook__EncryptionKey, stored as
 * `v1.<iv>.<tag>.<ciphertext>` in base64url; without a key, as they are.
 */
export interface SecretBox {
  readonly encrypts: boolean;
  seal(secret: string): string;
  open(stored: string, encrypted: boolean): string;
}

export function secretBox(encryptionKey: string | undefined): SecretBox {
  const key = encryptionKey ? Buffer.from(hkdfSync('sha256', encryptionKey, 'delivery-webhook', 'signing secrets v1', 32)) : undefined;
  return {
    encrypts: key !== undefined,
    seal(secret) {
      if (!key) return secret;
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      const sealed = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
      return ['v1', iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), sealed.toString('base64url')].join('.');
    },
    open(stored, encrypted) {
      if (!encrypted) return stored;
      if (!key) throw new Error('a signing secret is encrypted, and Webhook__EncryptionKey is not set');
      const [version, iv, tag, sealed] = stored.split('.');
      if (version !== 'v1' || !iv || !tag || !sealed) throw new Error('a signing secret is not in the v1 format');
      const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      return Buffer.concat([decipher.update(Buffer.from(sealed, 'base64url')), decipher.final()]).toString('utf8');
    },
  };
}
