/** Texts of the configuracoes area (es). */
export default {} as const;
