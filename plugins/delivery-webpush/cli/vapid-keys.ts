// `npm run webpush:keys`: a new VAPID key pair (P-256, base64url), as the two settings browser notifications need.
import webpush from 'web-push';

const { publicKey, privateKey } = webpush.generateVAPIDKeys();
process.stdout.write(`WebPush__VapidPublicKey=${publicKey}\nWebPush__VapidPrivateKey=${privateKey}\n`);
process.stderr.write('Keep the private key secret; browsers subscribed with one public key need it to stay the same.\n');
