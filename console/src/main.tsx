import { render } from 'preact';
import { App } from './app.js';
import './styles/console.css';

render(<App />, document.getElementById('app')!);
