// Work in progress: replaced by the page's implementation.
export default function UsuariosPage() {
  return <div data-page="UsuariosPage">UsuariosPage</div>;
}
