/** Client-side error texts (es); the server's codes come translated from the catalogue. */
export default {
  unidentified: "No identificado",
  generic: { title: "Ocurrió un error" },
  network: { title: "Sin conexión con el servidor", detail: "Verifique su conexión a internet e inténtelo de nuevo." },
  sessionExpired: { title: "Sesión expirada", detail: "Inicie sesión de nuevo." },
  chunk: { title: "No se pudo cargar la página", detail: "No se pudo cargar esta parte del sistema. Recargue la página." },
  plugin: { title: "Módulo no disponible", detail: "No se pudo cargar el módulo {{id}}." },
} as const;
