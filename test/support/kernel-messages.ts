/**
 * JupyterLab's kernel message types and their guards (`KernelMessage.isDisplayDataMsg` and its
 * kin), from the module that holds them: the package's index would load its whole client, some
 * ninety modules, into every wire suite.
 */
export * as KernelMessage from '@jupyterlab/services/lib/kernel/messages';
