/** Texts of the login area (pt-BR). */
export default {} as const;
