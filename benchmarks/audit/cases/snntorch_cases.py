"""snntorch: spiking neurons with membrane state, surrogate gradients and spike losses."""
import torch

from . import case


def _net(neuron, steps=4):
    """A two-layer spiking net unrolled over time, as snntorch's tutorials train it."""

    class Net(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.fc1, self.lif1 = torch.nn.Linear(8, 16), neuron()
            self.fc2, self.lif2 = torch.nn.Linear(16, 4), neuron()

        def forward(self, x):
            mem1, mem2 = self.lif1.reset_mem(), self.lif2.reset_mem()
            spikes = []
            for t in range(steps):
                spk1, mem1 = self.lif1(self.fc1(x[t]), mem1)
                spk2, mem2 = self.lif2(self.fc2(spk1), mem2)
                spikes.append(spk2)
            return torch.stack(spikes)

    return Net()


@case("leaky_net", grad=True)
def _():
    import snntorch as snn

    return _net(lambda: snn.Leaky(beta=0.9)), (torch.randn(4, 3, 8),), {}


@case("leaky_fast_sigmoid_learn_beta", grad=True)
def _():
    import snntorch as snn
    from snntorch import surrogate

    def neuron():
        return snn.Leaky(beta=0.8, spike_grad=surrogate.fast_sigmoid(slope=25), learn_beta=True,
                         learn_threshold=True, reset_mechanism="zero")

    return _net(neuron), (torch.randn(4, 3, 8),), {}


@case("leaky_step")
def _():
    import snntorch as snn

    lif = snn.Leaky(beta=0.9, learn_threshold=True, reset_mechanism="zero")
    return lif, (torch.randn(3, 8), lif.reset_mem()), {}


@case("synaptic_step")
def _():
    import snntorch as snn

    lif = snn.Synaptic(alpha=0.9, beta=0.8)
    return lif, (torch.randn(3, 8),), {}


@case("alpha_init_hidden")
def _():
    import snntorch as snn

    return snn.Alpha(alpha=0.9, beta=0.8, init_hidden=True), (torch.randn(3, 8),), {}


@case("rleaky_linear")
def _():
    import snntorch as snn

    lif = snn.RLeaky(beta=0.9, linear_features=8)
    spk, mem = lif.init_rleaky()
    return lif, (torch.randn(3, 8), spk, mem), {}


@case("slstm_step")
def _():
    import snntorch as snn

    cell = snn.SLSTM(input_size=8, hidden_size=6)
    syn, mem = cell.reset_mem()
    return cell, (torch.randn(3, 8), syn, mem), {}


@case("leaky_parallel")
def _():
    import snntorch as snn

    return snn.LeakyParallel(input_size=8, hidden_size=6), (torch.randn(5, 3, 8),), {}


def _spikes():
    return torch.rand(6, 3, 4, requires_grad=True), torch.tensor([0, 2, 1])


@case("ce_rate_loss", grad=True)
def _():
    import snntorch.functional as SF

    return SF.ce_rate_loss(), _spikes(), {}


@case("mse_count_loss", grad=True)
def _():
    import snntorch.functional as SF

    return SF.mse_count_loss(correct_rate=0.8, incorrect_rate=0.2), _spikes(), {}


@case("accuracy_rate")
def _():
    import snntorch.functional as SF

    spk = (torch.rand(6, 3, 4) > 0.5).float()
    return SF.accuracy_rate, (spk, torch.tensor([0, 2, 1])), {}


@case("spikegen_rate")
def _():
    from snntorch import spikegen

    return spikegen.rate, (torch.rand(3, 8),), {"num_steps": 4}


@case("spikegen_latency")
def _():
    from snntorch import spikegen

    return spikegen.latency, (torch.rand(3, 8),), {"num_steps": 4, "normalize": True, "linear": True}
