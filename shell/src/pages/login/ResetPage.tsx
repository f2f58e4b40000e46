// Work in progress: replaced by the page's implementation.
export default function ResetPage() {
  return <div data-page="ResetPage">ResetPage</div>;
}
