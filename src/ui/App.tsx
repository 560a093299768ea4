export function App() {
  return <h1>LoadBalancer data path</h1>;
}
