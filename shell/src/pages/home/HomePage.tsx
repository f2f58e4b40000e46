// Work in progress: replaced by the page's implementation.
export default function HomePage() {
  return <div data-page="HomePage">HomePage</div>;
}
