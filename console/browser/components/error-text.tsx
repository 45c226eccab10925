import { errorMessage } from '@/console/browser/messages';

/** A failed request in words, with the API's code after it for support. */
export function ErrorText({
  error,
  limits,
}: {
  error: { code?: string; param?: string; message: string };
  limits?: { min: number; max: number };
}) {
  const { text, code } = errorMessage({ code: error.code ?? 'error', param: error.param, message: error.message }, limits);
  return (
    <>
      {text}
      <span className="error-code" data-testid="error-code">
        (code: {code})
      </span>
    </>
  );
}
