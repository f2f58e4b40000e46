// Work in progress: replaced by the page's implementation.
export default function LoginPage() {
  return <div data-page="LoginPage">LoginPage</div>;
}
