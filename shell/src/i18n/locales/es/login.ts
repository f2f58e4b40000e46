/** Texts of the login area (es). */
export default {} as const;
