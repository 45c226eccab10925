import { keyLabel, type Viewer } from '@/console/browser/viewer';

/** Whose console this is and which key is signed in, in the top bar (as the API described the key at sign-in). */
export function MerchantName({ viewer }: { viewer: Viewer }) {
  return (
    <>
      <span className="merchant-name" data-testid="merchant-name">
        <span className="visually-hidden">Signed in as </span>
        {viewer.merchantName}
      </span>
      <span className="key-label" data-testid="key-label">
        {keyLabel(viewer)}
      </span>
    </>
  );
}
