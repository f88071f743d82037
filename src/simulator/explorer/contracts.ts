import { mix32 } from '../server/prng.js';

/** What the explorer says about a contract: its ABI (as Etherscan, a JSON string) and verified source. */
export interface ContractSource {
  SourceCode: string;
  ABI: string;
  ContractName: string;
  CompilerVersion: string;
  OptimizationUsed: string;
  Runs: string;
  ConstructorArguments: string;
  EVMVersion: string;
  Library: string;
  LicenseType: string;
  Proxy: string;
  Implementation: string;
  SwarmSource: string;
}

interface ContractTemplate {
  name: string;
  abi: readonly object[];
  source: (contractName: string) => string;
}

const fn = (name: string, inputs: [string, string][], outputs: string[], stateMutability: string): object => ({
  type: 'function',
  name,
  inputs: inputs.map(([argName, type]) => ({ name: argName, type })),
  outputs: outputs.map((type) => ({ name: '', type })),
  stateMutability,
});

const transferEvent = {
  type: 'event',
  name: 'Transfer',
  anonymous: false,
  inputs: [
    { name: 'from', type: 'address', indexed: true },
    { name: 'to', type: 'address', indexed: true },
    { name: 'value', type: 'uint256', indexed: false },
  ],
};

/** Contracts alternate between two templates, so clients see more than one ABI. */
const TEMPLATES: readonly ContractTemplate[] = [
  {
    name: 'Token',
    abi: [
      fn('balanceOf', [['owner', 'address']], ['uint256'], 'view'),
      fn('transfer', [['to', 'address'], ['value', 'uint256']], ['bool'], 'nonpayable'),
      fn('approve', [['spender', 'address'], ['value', 'uint256']], ['bool'], 'nonpayable'),
      fn('transferFrom', [['from', 'address'], ['to', 'address'], ['value', 'uint256']], ['bool'], 'nonpayable'),
      transferEvent,
    ],
    source: (contractName) =>
      `// SPDX-License-Identifier: MIT\npragma solidity ^0.8.20;\n\ncontract ${contractName} {\n    mapping(address => uint256) public balanceOf;\n    mapping(address => mapping(address => uint256)) public allowance;\n    event Transfer(address indexed from, address indexed to, uint256 value);\n\n    function transfer(address to, uint256 value) external returns (bool) {\n        balanceOf[msg.sender] -= value;\n        balanceOf[to] += value;\n        emit Transfer(msg.sender, to, value);\n        return true;\n    }\n}\n`,
  },
  {
    name: 'Vault',
    abi: [
      fn('deposit', [], [], 'payable'),
      fn('withdraw', [['amount', 'uint256']], [], 'nonpayable'),
      fn('balanceOf', [['owner', 'address']], ['uint256'], 'view'),
      transferEvent,
    ],
    source: (contractName) =>
      `// SPDX-License-Identifier: MIT\npragma solidity ^0.8.20;\n\ncontract ${contractName} {\n    mapping(address => uint256) public balanceOf;\n\n    function deposit() external payable {\n        balanceOf[msg.sender] += msg.value;\n    }\n\n    function withdraw(uint256 amount) external {\n        balanceOf[msg.sender] -= amount;\n        payable(msg.sender).transfer(amount);\n    }\n}\n`,
  },
];

function templateOf(addressIndex: number): ContractTemplate {
  return TEMPLATES[mix32(addressIndex) % TEMPLATES.length]!;
}

export function contractAbiJson(addressIndex: number): string {
  return JSON.stringify(templateOf(addressIndex).abi);
}

export function contractSource(addressIndex: number): ContractSource {
  const template = templateOf(addressIndex);
  const contractName = `${template.name}${addressIndex}`;
  return {
    SourceCode: template.source(contractName),
    ABI: JSON.stringify(template.abi),
    ContractName: contractName,
    CompilerVersion: 'v0.8.20+commit.a1b79de6',
    OptimizationUsed: '1',
    Runs: '200',
    ConstructorArguments: '',
    EVMVersion: 'Default',
    Library: '',
    LicenseType: 'MIT',
    Proxy: '0',
    Implementation: '',
    SwarmSource: '',
  };
}

/** What Etherscan's getsourcecode sends for an address with no verified source (status "1", as for a verified one). */
export function unverifiedSource(): ContractSource {
  return {
    SourceCode: '',
    ABI: 'Contract source code not verified',
    ContractName: '',
    CompilerVersion: '',
    OptimizationUsed: '',
    Runs: '',
    ConstructorArguments: '',
    EVMVersion: 'Default',
    Library: '',
    LicenseType: 'Unknown',
    Proxy: '0',
    Implementation: '',
    SwarmSource: '',
  };
}
