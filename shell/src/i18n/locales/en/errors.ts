/** Client-side error texts (en); the server's codes come translated from the catalogue. */
export default {
  unidentified: "Unidentified error",
  generic: { title: "Something went wrong" },
  network: { title: "No connection to the server", detail: "Check your internet connection and try again." },
  sessionExpired: { title: "Session expired", detail: "Please log in again." },
  chunk: { title: "Could not load the page", detail: "This part of the system could not be loaded. Reload the page." },
  plugin: { title: "Module unavailable", detail: "The module {{id}} could not be loaded." },
} as const;
