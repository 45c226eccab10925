import Link from 'next/link';

// Our own 404: Next's default one styles itself with inline style attributes, which the CSP blocks.
export default function NotFound() {
  return (
    <main className="page center">
      <section className="card narrow">
        <h1>Not found</h1>
        <p className="muted">There is nothing at this address. A checkout link may have been mistyped.</p>
        <Link href="/dashboard">Go to the console</Link>
      </section>
    </main>
  );
}
